//! `--symmetry`: a quarter of the tree of a square board (each solution found with its
//! three turns) and two anchored halves of a rectangle (each with its half turn) give
//! every solution, for every heuristic, thread count and limit; hinted boards are
//! searched whole.

use crate::common;

use plytile::puzzle::formats::{read_puzzle, EdgeOrder};
use plytile::puzzle::generate::generate;
use plytile::puzzle::Puzzle;
use plytile::search::symmetric::{parts, solve_symmetric, solve_symmetric_parts};
use plytile::search::symmetry::{anchored, half_turn, turn, Parts};
use plytile::search::{solve, Along, Heuristic, Limits, Mrv, Order, Spread, Strategy};
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

fn sym_parts(p: &Puzzle, h: Heuristic, how: Parts, threads: usize) -> plytile::report::SolveResult {
    let spread = Spread {
        threads,
        ..Spread::default()
    };
    solve_symmetric_parts(p, h, how, &limits(None), &AtomicBool::new(false), &spread).unwrap()
}

fn sorted(r: &plytile::report::SolveResult) -> Vec<Vec<[usize; 2]>> {
    let mut v = r.solutions.clone();
    v.sort();
    v
}

/// A new directory for one test's checkpoints, and the checkpoint file in it.
fn scratch(name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("plytile-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ck = dir.join("run.ck");
    (dir, ck)
}

/// The heuristics and thread counts each anchored search is run with.
const RUNS: [(Heuristic, usize); 3] = [
    (Heuristic::Scan(Along::Shape), 1),
    (Heuristic::Scan(Along::Shape), 2),
    (Heuristic::Mrv(Mrv), 1),
];

/// The whole tree's scan search, which must find `count` solutions.
fn whole_tree(p: &plytile::puzzle::Puzzle, count: u64) -> plytile::report::SolveResult {
    let whole = solve(
        p,
        Heuristic::Scan(Along::Shape),
        &limits(None),
        &AtomicBool::new(false),
    );
    assert_eq!(whole.solutions_found, count);
    whole
}

#[test]
fn a_quarter_of_the_tree_gives_every_solution() {
    for (name, count) in [("03x03", 16), ("04x04", 36), ("05x05", 16), ("06x06", 260)] {
        let p = brendan(name);
        let whole = whole_tree(&p, count);
        for (h, threads) in RUNS {
            if name == "06x06" && h == Heuristic::Mrv(Mrv) {
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
        let r = sym(&p, Heuristic::Scan(Along::Shape), 1, &limits(Some(k)));
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
            // Halves, not a quarter: two trees, each solution standing for 2 turns.
            let (halves, turns) = anchored(&p).unwrap();
            assert_eq!((halves.len(), turns), (2, 2));
            let whole = whole_tree(&p, count);
            for (h, threads) in RUNS {
                let r = sym(&p, h, threads, &limits(None));
                assert_eq!(
                    (r.symmetry, r.solutions_found),
                    (2, count),
                    "{name} {h} {threads}"
                );
                assert_eq!(sorted(&r), sorted(&whole), "{name} {h} {threads}");
                // At most the cores run.
                assert_eq!(r.threads, plytile::search::workers(threads), "{name}");
                if h == Heuristic::Scan(Along::Shape) {
                    assert!(
                        r.nodes < whole.nodes,
                        "{name}: {} vs {}",
                        r.nodes,
                        whole.nodes
                    );
                }
            }
            for k in [1, 2, 3, count - 1, count, count + 1] {
                let r = sym(&p, Heuristic::Scan(Along::Shape), 1, &limits(Some(k)));
                assert_eq!(r.solutions_found, k.min(count), "{name} k = {k}");
                assert_eq!(r.solutions.len() as u64, k.min(count), "{name} k = {k}");
                assert_eq!(r.exhaustive, k > count, "{name} k = {k}");
            }
        }
    }
}

/// `--max-nodes` is one budget for the whole run, as `--timeout` is: the parts share
/// it, and a run that spends it in its first part does not start the second.
#[test]
fn the_node_budget_covers_all_parts() {
    let p = brendan("07x04");
    let whole = sym(&p, Heuristic::Scan(Along::Shape), 1, &limits(None));
    let first = whole.symmetry_parts[0].nodes;
    assert_eq!(whole.symmetry_parts.len(), 2);
    for budget in [first / 2, first, first + 1000] {
        let l = Limits {
            max_nodes: Some(budget),
            ..limits(None)
        };
        let r = sym(&p, Heuristic::Scan(Along::Shape), 1, &l);
        assert_eq!(r.nodes, budget, "budget {budget}");
        assert_eq!(r.stopped_by, Some(plytile::search::Stop::MaxNodes));
        assert_eq!(r.symmetry_parts.len(), 1 + (budget > first) as usize);
        // The deepest board's depth counts the corner fixed in its tree.
        let placed = r.deepest.board.iter().filter(|c| c.is_some()).count();
        assert_eq!(r.deepest.depth, placed, "budget {budget}");
    }
    // A budget of the whole tree's size finishes it.
    let l = Limits {
        max_nodes: Some(whole.nodes),
        ..limits(None)
    };
    let r = sym(&p, Heuristic::Scan(Along::Shape), 1, &l);
    assert_eq!((r.exhaustive, r.nodes), (true, whole.nodes));
}

/// With a checkpoint, a budget smaller than the first part's frontier still moves the
/// run on: the frontier each rerun rebuilds is not new work, so it is not charged
/// (it was, and every rerun stopped where the one before had).
#[test]
fn small_budget_reruns_of_a_checkpoint_reach_the_whole_tree() {
    let p = brendan("06x05");
    let whole = sym(&p, Heuristic::Scan(Along::Shape), 1, &limits(None));
    assert_eq!((whole.solutions_found, whole.nodes), (4, 112_614));
    let (dir, ck) = scratch("sym-small-budget");
    let spread = Spread {
        threads: 1,
        split_depth: Some(7),
        checkpoint: Some(ck),
        ..Spread::default()
    };
    let l = Limits {
        max_nodes: Some(1000),
        ..limits(None)
    };
    let mut runs = 0;
    let r = loop {
        runs += 1;
        assert!(runs <= 200, "no end after 200 reruns");
        let stop = AtomicBool::new(false);
        let r = solve_symmetric(&p, Heuristic::Scan(Along::Shape), &l, &stop, &spread).unwrap();
        if r.exhaustive {
            break r;
        }
    };
    std::fs::remove_dir_all(dir).unwrap();
    assert_eq!((r.solutions_found, r.nodes), (4, 112_614));
    assert_eq!(r.nodes_per_depth, whole.nodes_per_depth);
    assert_eq!(sorted(&r), sorted(&whole));
}

#[test]
fn hinted_boards_are_searched_whole() {
    let mut hinted = generate(4, 4, 2, 2, 3).unwrap();
    let first = solve(
        &hinted,
        Heuristic::Mrv(Mrv),
        &limits(Some(1)),
        &AtomicBool::new(false),
    );
    hinted
        .hints
        .push(common::hint_from(&hinted, &first.solution_board(0), 5));
    assert!(anchored(&hinted).is_none());
    assert_eq!(
        sym(&hinted, Heuristic::Scan(Along::Shape), 1, &limits(None)).symmetry,
        1
    );
}

#[test]
fn four_turns_are_the_identity_and_one_is_not() {
    let p = brendan("04x04");
    let r = solve(
        &p,
        Heuristic::Scan(Along::Shape),
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

/// `predict --symmetry` with pairs predicts and measures the three trees `solve`
/// searches, the same ones in the same order, and sums them.
#[test]
fn predict_symmetry_pairs_sums_the_trees_solve_searches() {
    let json = |args: &[&str]| {
        let out = common::plytile(args);
        assert_eq!(common::code(&out), 0, "{}", common::stderr(&out));
        serde_json::from_str::<serde_json::Value>(&common::stdout(&out)).unwrap()
    };
    let puzzle = common::p("brendan/pieces_05x05.txt");
    let cut = ["--symmetry", "--symmetry-parts", "pairs", "--json"];
    let solved = json(
        &[
            &["solve", puzzle.as_str(), "--all", "--threads", "1"],
            &cut[..],
        ]
        .concat(),
    );
    let predicted = json(
        &[
            &["predict", puzzle.as_str(), "--measure", "--probes", "100"],
            &cut[..],
        ]
        .concat(),
    );
    assert_eq!(solved["nodes"], 23_760);
    assert_eq!(predicted["measured_total"], solved["nodes"]);
    assert_eq!(predicted["measured_per_depth"], solved["nodes_per_depth"]);
    // The tree's own solutions: solve reports each with its four turns.
    assert_eq!(predicted["measured_solutions"], 4);
    assert_eq!(solved["solutions_found"], 16);
    // The trees' hints are the cut's corners, not the board's: no hints note.
    let notes = predicted["notes"].to_string();
    assert!(!notes.contains("with hints"), "{notes}");
    assert_eq!(predicted["stratified_probes"], 1_000_000);
    let (trees, parts) = (
        solved["symmetry_parts"].as_array().unwrap(),
        predicted["parts"].as_array().unwrap(),
    );
    assert_eq!(parts.len(), 3);
    let mut estimated = 0.0;
    for (t, p) in trees.iter().zip(parts) {
        assert_eq!((&p["corners"], &p["select"]), (&t["corners"], &t["select"]));
        assert_eq!(p["measured_total"], t["nodes"]);
        estimated += p["estimate"].as_f64().unwrap();
    }
    assert!((predicted["estimated_total"].as_f64().unwrap() - estimated).abs() < 1e-6);
    for m in ["analytic", "sampled", "knuth", "stratified", "owen"] {
        let sum: f64 = parts
            .iter()
            .map(|p| p["predicted_total"][m].as_f64().unwrap())
            .sum();
        let total = predicted["summary"][m]["predicted_total"].as_f64().unwrap();
        assert!((sum - total).abs() < 1e-6 * total, "{m}: {sum} != {total}");
    }
    // A board wider than tall: the two anchored halves of `solve --symmetry`.
    let wide = common::p("brendan/pieces_07x05.txt");
    let halves = json(&[
        "predict",
        wide.as_str(),
        "--symmetry",
        "--measure",
        "--json",
    ]);
    assert_eq!(halves["measured_total"], 3_665_514);
    assert_eq!(halves["parts"].as_array().unwrap().len(), 2);
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

/// `--symmetry-parts pairs`: three trees, each with a pair of corner pieces fixed on
/// its first line, hold every solution in exactly one of its turns: the same solutions
/// as the whole tree, for scan (both ways of laying a pair), scan:rows (rows only) and
/// mrv, on one and two threads. Each tree's nodes and solutions are those of its
/// puzzle solved alone.
#[test]
fn three_pair_trees_give_every_solution_once() {
    let rows: Heuristic = "scan:rows".parse().unwrap();
    let runs = [
        (Heuristic::Scan(Along::Shape), 1),
        (Heuristic::Scan(Along::Shape), 2),
        (rows, 1),
        (Heuristic::Mrv(Mrv), 1),
    ];
    for (name, count) in [("04x04", 36), ("05x05", 16), ("06x06", 260)] {
        let p = brendan(name);
        let n = p.width - 1;
        let whole = whole_tree(&p, count);
        for (h, threads) in runs {
            if name == "06x06" && h == Heuristic::Mrv(Mrv) {
                continue; // slow; scan covers it
            }
            let what = format!("{name} {h} {threads}");
            let r = sym_parts(&p, h, Parts::Pairs, threads);
            assert_eq!((r.symmetry, r.solutions_found), (4, count), "{what}");
            assert_eq!(sorted(&r), sorted(&whole), "{what}");
            assert_eq!(r.select, h, "{what}");
            assert_eq!(r.symmetry_parts.len(), 3, "{what}");
            let (chosen, turns, _) = parts(&p, h, Parts::Pairs, true, threads).unwrap();
            assert_eq!(turns, 4);
            let (mut nodes, mut found) = (0, 0);
            for (t, part) in r.symmetry_parts.iter().zip(&chosen) {
                // Two corners on the first line the part's scan fills.
                let cells: Vec<[usize; 2]> = t.corners.iter().map(|c| [c[0], c[1]]).collect();
                let columns = t.select == Heuristic::Scan(Along::Columns);
                let line = if columns {
                    [[0, 0], [n, 0]]
                } else {
                    [[0, 0], [0, n]]
                };
                assert_eq!(cells, line, "{what}");
                assert!(t.estimated_nodes.is_some(), "{what}");
                if h == rows {
                    assert!(!columns, "{what}");
                }
                let alone = solve(
                    &part.puzzle,
                    part.select,
                    &limits(None),
                    &AtomicBool::new(false),
                );
                assert_eq!(
                    (t.nodes, t.solutions_found),
                    (alone.nodes, alone.solutions_found),
                    "{what}"
                );
                nodes += alone.nodes;
                found += alone.solutions_found;
            }
            assert_eq!((r.nodes, found * 4), (nodes, count), "{what}");
        }
    }
}

/// `auto` cuts small trees by the anchor (one part, as `anchor` does), and runs that
/// stop at a solution always.
#[test]
fn auto_keeps_the_anchor_for_small_trees_and_first_solutions() {
    let p = brendan("05x05");
    for how in [Parts::Auto, Parts::Anchor] {
        let (v, turns, _) = parts(&p, Heuristic::Scan(Along::Shape), how, true, 1).unwrap();
        assert_eq!((v.len(), turns), (1, 4));
        assert_eq!(v[0].puzzle.hints, anchored(&p).unwrap().0[0].hints);
    }
    let (v, _, _) = parts(&p, Heuristic::Scan(Along::Shape), Parts::Auto, false, 1).unwrap();
    assert_eq!(v.len(), 1);
    let (v, _, _) = parts(&p, Heuristic::Scan(Along::Shape), Parts::Pairs, false, 1).unwrap();
    assert_eq!(v.len(), 3);
    assert_eq!(
        sym_parts(&p, Heuristic::Scan(Along::Shape), Parts::Auto, 1).nodes,
        sym(&p, Heuristic::Scan(Along::Shape), 1, &limits(None)).nodes
    );
}

#[test]
fn cli_symmetry_parts_pairs_reports_each_tree_and_resumes() {
    let (dir, ck) = scratch("pairs");
    let puzzle = common::p("brendan/pieces_05x05.txt");
    let args = [
        "solve",
        puzzle.as_str(),
        "--all",
        "--symmetry",
        "--symmetry-parts",
        "pairs",
        "--json",
        "--threads",
        "2",
        "--checkpoint",
        ck.to_str().unwrap(),
    ];
    let run = || {
        let out = common::plytile(&args);
        assert_eq!(common::code(&out), 0, "{}", common::stderr(&out));
        serde_json::from_str::<serde_json::Value>(&common::stdout(&out)).unwrap()
    };
    let v = run();
    assert_eq!(
        (v["solutions_found"].as_u64(), v["symmetry"].as_u64()),
        (Some(16), Some(4))
    );
    assert_eq!(v["select"], "scan");
    let parts = v["symmetry_parts"].as_array().unwrap();
    assert_eq!(parts.len(), 3);
    let sum: u64 = parts.iter().map(|t| t["nodes"].as_u64().unwrap()).sum();
    assert_eq!(v["nodes"].as_u64(), Some(sum));
    for f in ["run.ck", "run.ck.tr", "run.ck.tr3"] {
        assert!(dir.join(f).exists(), "{f}");
    }
    // Again from the finished checkpoints: the same counts, nothing searched twice.
    let again = run();
    assert_eq!(again["solutions_found"], v["solutions_found"]);
    assert_eq!(again["nodes"], v["nodes"]);
    assert_eq!(
        again["symmetry_parts"][2]["corners"],
        v["symmetry_parts"][2]["corners"]
    );
    std::fs::remove_dir_all(&dir).unwrap();

    // Bad values: one line naming the flag, exit 2.
    for bad in [
        vec![
            "solve",
            puzzle.as_str(),
            "--symmetry",
            "--symmetry-parts",
            "halves",
        ],
        vec!["solve", puzzle.as_str(), "--symmetry-parts", "pairs"],
    ] {
        let out = common::plytile(&bad);
        let err = common::stderr(&out);
        assert_eq!(common::code(&out), 2, "{err}");
        assert!(err.contains("--symmetry"), "{err}");
    }
}

/// Shards of a pairs run merge into the whole run, tree by tree; a shard of another
/// cut is refused.
#[test]
fn shards_of_pair_trees_merge_tree_by_tree() {
    let p = brendan("05x05");
    let run = |how: Parts, shard: Option<(usize, usize)>| {
        let spread = Spread {
            threads: 2,
            shard,
            ..Spread::default()
        };
        let l = limits(None);
        solve_symmetric_parts(
            &p,
            Heuristic::Scan(Along::Shape),
            how,
            &l,
            &AtomicBool::new(false),
            &spread,
        )
        .unwrap()
    };
    let whole = run(Parts::Pairs, None);
    let shards: Vec<_> = (0..3)
        .map(|i| (format!("shard {i}"), run(Parts::Pairs, Some((i, 3)))))
        .collect();
    let (m, warnings) = plytile::merge::merge(&shards, 1000).unwrap();
    assert!(warnings.is_empty() && m.exhaustive, "{warnings:?}");
    assert_eq!(
        (m.nodes, m.solutions_found),
        (whole.nodes, whole.solutions_found)
    );
    assert_eq!(m.symmetry_parts, whole.symmetry_parts);
    // A shard stopped in its first tree lists one tree; the others' agree with it.
    let spread = Spread {
        threads: 1,
        shard: Some((1, 3)),
        ..Spread::default()
    };
    let l = Limits {
        max_nodes: Some(10),
        ..limits(None)
    };
    let stopped = solve_symmetric_parts(
        &p,
        Heuristic::Scan(Along::Shape),
        Parts::Pairs,
        &l,
        &AtomicBool::new(false),
        &spread,
    )
    .unwrap();
    assert_eq!(stopped.symmetry_parts.len(), 1);
    let some = [
        shards[0].clone(),
        ("stopped".to_string(), stopped),
        shards[2].clone(),
    ];
    let (m, _) = plytile::merge::merge(&some, 1000).unwrap();
    assert!(!m.exhaustive);
    assert_eq!(m.symmetry_parts.len(), 3);
    let other = ("anchor".to_string(), run(Parts::Anchor, Some((1, 3))));
    let mixed = [shards[0].clone(), other];
    let err = plytile::merge::merge(&mixed, 1000).unwrap_err();
    assert!(err.to_string().contains("symmetry"), "{err}");
}

/// A run stopped while the estimates choose its pair trees (here by `--timeout`;
/// they take about 18 s on Puzzle C) searches nothing, writes no checkpoint and says
/// why.
#[test]
fn a_timeout_during_the_pair_estimates_searches_nothing() {
    let (dir, ck) = scratch("stop");
    let puzzle = common::p("wortmann8x8/brendan8x8_puzzleC_set1.txt");
    let out = common::plytile(&[
        "solve",
        puzzle.as_str(),
        "--all",
        "--symmetry",
        "--json",
        "--timeout",
        "1",
        "--checkpoint",
        ck.to_str().unwrap(),
    ]);
    assert_eq!(common::code(&out), 3, "{}", common::stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&common::stdout(&out)).unwrap();
    assert_eq!(v["stopped_by"], "timeout");
    assert_eq!(
        (v["nodes"].as_u64(), v["symmetry"].as_u64()),
        (Some(0), Some(4))
    );
    assert!(v.get("symmetry_parts").is_none(), "{v}");
    assert!(!ck.exists());
    std::fs::remove_dir_all(&dir).unwrap();
    // The text report says so too.
    let text = common::plytile(&[
        "solve",
        puzzle.as_str(),
        "--all",
        "--symmetry",
        "--timeout",
        "1",
    ]);
    assert_eq!(common::code(&text), 3);
    let report = common::stdout(&text);
    assert!(report.contains("nothing searched"), "{report}");
    assert!(!report.contains("nodes per depth"), "{report}");
    // mrv's estimates run plain probes on the search state (Puzzle D: 3e7 per tree,
    // minutes); they stop as scan's do. Had they run to the end, the search would
    // have counted nodes before seeing the deadline.
    let d = common::p("wortmann8x8/puzzleD_8x8_set2.txt");
    let args = [
        "solve",
        d.as_str(),
        "--all",
        "--symmetry",
        "--select",
        "mrv",
    ];
    let out = common::plytile(&[&args[..], &["--json", "--timeout", "1"]].concat());
    assert_eq!(common::code(&out), 3, "{}", common::stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&common::stdout(&out)).unwrap();
    assert_eq!(
        (v["stopped_by"].as_str(), v["nodes"].as_u64()),
        (Some("timeout"), Some(0))
    );
    assert!(v.get("symmetry_parts").is_none(), "{v}");
}

/// The solutions (up to turns) and nodes the records (and `finished`) of a `--symmetry` run's part
/// checkpoints (`ck`, `ck.tr`, `ck.tr3`) hold, and how many of those files there are.
fn held(ck: &Path) -> (u64, u64, usize) {
    let (mut solutions, mut nodes, mut files) = (0, 0, 0);
    for name in ["", ".tr", ".tr3"] {
        let path = format!("{}{name}", ck.display());
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        for r in v["records"].as_array().unwrap() {
            solutions += r["solutions_found"].as_u64().unwrap();
            let per_depth = r["nodes_per_depth"].as_array().unwrap();
            nodes += per_depth.iter().map(|n| n.as_u64().unwrap()).sum::<u64>();
        }
        // The subproblems finished without a solution, summed.
        if let Some(per_depth) = v["finished"]["nodes_per_depth"].as_array() {
            nodes += per_depth.iter().map(|n| n.as_u64().unwrap()).sum::<u64>();
        }
        files += 1;
    }
    (solutions, nodes, files)
}

/// One stop of [`rerun_at_once`]: the `--max-nodes` run (solutions, nodes, part
/// checkpoint files after it), then its rerun under a timeout that stops it at once
/// (solutions, nodes, resumed nodes).
type StopAndRerun = ((u64, u64, usize), (u64, u64, u64));

/// `solve 6x6 --all --symmetry --symmetry-parts HOW --checkpoint FILE` on one thread,
/// stopped by `--max-nodes 3000000` once per entry of `stops`, each time rerun with
/// `--timeout 0.000001` (which stops it before the estimates that chose its trees
/// would end), then run to the end: `whole` (solutions, nodes), as one run without a
/// checkpoint has them.
fn rerun_at_once(how: &str, stops: &[StopAndRerun], whole: (u64, u64)) {
    let (dir, ck) = scratch(&format!("at-once-{how}"));
    let puzzle = common::p("brendan/pieces_06x06.txt");
    let run = |extra: &[&str]| {
        let base = [
            "solve",
            puzzle.as_str(),
            "--all",
            "--symmetry",
            "--symmetry-parts",
            how,
            "--json",
            "--threads",
            "1",
            "--checkpoint",
            ck.to_str().unwrap(),
        ];
        let out = common::plytile(&[&base[..], extra].concat());
        assert!(
            matches!(common::code(&out), 0 | 3),
            "{}",
            common::stderr(&out)
        );
        serde_json::from_str::<serde_json::Value>(&common::stdout(&out)).unwrap()
    };
    let got = |v: &serde_json::Value, key: &str| v[key].as_u64().unwrap_or(0);
    let trees = |v: &serde_json::Value| {
        let t = v["symmetry_parts"].as_array().unwrap();
        t.iter().map(|t| t["corners"].clone()).collect::<Vec<_>>()
    };
    let fresh = run(&[]);
    let (cut, estimates) = (
        trees(&fresh),
        fresh["symmetry_parts"][0]["estimated_nodes"].clone(),
    );
    assert!(estimates.is_f64(), "{how}: {fresh}");
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::create_dir_all(&dir).unwrap();
    for (k, &((found, nodes, files), at_once)) in stops.iter().enumerate() {
        let what = format!("{how}, stop {}", k + 1);
        let v = run(&["--max-nodes", "3000000"]);
        assert_eq!(v["stopped_by"], "max_nodes", "{what}");
        assert_eq!(
            (got(&v, "solutions_found"), got(&v, "nodes")),
            (found, nodes),
            "{what}"
        );
        let (held_found, held_nodes, held_files) = held(&ck);
        assert_eq!(held_files, files, "{what}");
        let again = run(&["--timeout", "0.000001"]);
        assert_eq!(
            (again["stopped_by"].as_str(), again["exhaustive"].as_bool()),
            (Some("timeout"), Some(false)),
            "{what}"
        );
        let counts = |v: &serde_json::Value| {
            let keys = ["solutions_found", "nodes", "resumed_nodes"];
            (got(v, keys[0]), got(v, keys[1]), got(v, keys[2]))
        };
        assert_eq!(counts(&again), at_once, "{what}");
        // What the files held, read back: every node, every solution with its turns.
        assert_eq!(
            (held_found * 4, held_nodes),
            (at_once.0, at_once.2),
            "{what}"
        );
        // The same trees as the first run, with the estimates that chose them.
        let n = again["symmetry_parts"].as_array().unwrap().len();
        assert_eq!(trees(&again)[..], cut[..n], "{what}");
        assert_eq!(
            again["symmetry_parts"][0]["estimated_nodes"], estimates,
            "{what}"
        );
    }
    let last = run(&[]);
    assert_eq!(last["exhaustive"], true, "{how}");
    assert_eq!(
        (got(&last, "solutions_found"), got(&last, "nodes")),
        whole,
        "{how}"
    );
    assert_eq!(trees(&last), cut, "{how}");
    // Finished checkpoints, stopped at once: the whole run, exhaustive.
    let again = run(&["--timeout", "0.000001"]);
    assert_eq!(again["exhaustive"], true, "{how}");
    assert_eq!(
        (got(&again, "solutions_found"), got(&again, "nodes")),
        whole,
        "{how}"
    );
    assert_eq!(got(&again, "resumed_nodes"), held(&ck).1, "{how}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A checkpointed run of Brendan's 6x6 by pairs (three trees, 16,972,376 nodes, as one
/// run at the same cut has them), stopped in its first tree and again in its second:
/// a rerun stopped at once takes the trees from the part checkpoints (the first
/// file's tree alone does not tell the ways of the other two: each file records the
/// cut) and reports what they hold, not nothing.
#[test]
fn a_rerun_stopped_at_once_reports_what_the_pair_checkpoints_hold() {
    let stops = [
        ((44, 3_000_006, 1), (44, 3_000_006, 3_000_000)),
        ((120, 6_000_013, 2), (120, 6_000_013, 6_000_000)),
    ];
    rerun_at_once("pairs", &stops, (260, 16_972_376));
}

/// The same with `auto`, whose estimate keeps the anchored tree of the 6x6 (it is
/// under `PAIRS_FROM`): no estimate runs again, the single checkpoint names the tree.
#[test]
fn a_rerun_stopped_at_once_reports_what_the_auto_checkpoint_holds() {
    let stops = [
        ((60, 3_000_007, 1), (60, 3_000_007, 3_000_000)),
        ((128, 6_000_007, 1), (128, 6_000_007, 6_000_000)),
    ];
    rerun_at_once("auto", &stops, (260, 14_518_615));
}

/// A checkpoint rerun with another `--symmetry` cut, or with `--symmetry` added or
/// dropped, is refused with what the file holds, what was asked, and how to resume
/// it; rerun as it was written, it resumes.
#[test]
fn a_checkpoint_of_another_symmetry_cut_says_which_and_how_to_resume() {
    let dir = common::scratch_dir("sym-other-cut");
    let six = common::p("brendan/pieces_06x06.txt");
    let solve = |ck: &Path, flags: &[&str]| {
        let args = ["solve", &six, "-q", "--max-nodes", "100000"];
        common::plytile(&[&args[..], &["--checkpoint", &common::s(ck)], flags].concat())
    };
    let refused = |ck: &Path, flags: &[&str], what: &str| {
        let o = solve(ck, flags);
        let name = common::s(ck);
        common::assert_input_error(&o, &name, None, what);
        let e = common::stderr(&o);
        assert!(e.contains(what), "{flags:?}: says {what:?}: {e}");
        assert!(e.contains(&format!("or delete {name}")), "{e}");
    };
    let pairs = ["--all", "--symmetry", "--symmetry-parts", "pairs"];
    let (whole, auto) = (["--all"], ["--all", "--symmetry"]);
    let anchor = ["--all", "--symmetry", "--symmetry-parts", "anchor"];
    let (pz, an, no) = (dir.join("pz.ck"), dir.join("an.ck"), dir.join("no.ck"));
    for (ck, flags) in [(&pz, &pairs[..]), (&an, &anchor[..]), (&no, &whole[..])] {
        let o = solve(ck, flags);
        let stopped = common::stdout(&o).contains("not exhaustive");
        assert!(stopped, "{flags:?} stops at the budget");
    }
    let other = "this checkpoint holds a tree of another --symmetry cut";
    refused(
        &pz,
        &anchor,
        &format!("{other}: --symmetry-parts pairs, not anchor as asked; rerun with --symmetry-parts pairs to resume it"),
    );
    refused(
        &pz,
        &["--symmetry", "--solutions", "1"],
        "--symmetry-parts pairs, not anchor (what auto takes without --all) as asked",
    );
    refused(
        &an,
        &pairs,
        &format!("{other}: --symmetry-parts anchor, not pairs as asked; rerun with --symmetry-parts anchor to resume it"),
    );
    let without = "is of a tree of a --symmetry run (--symmetry-parts {}), and this run is without --symmetry; rerun with --symmetry --symmetry-parts {} to resume it";
    refused(&pz, &whole, &without.replace("{}", "pairs"));
    refused(&an, &whole, &without.replace("{}", "anchor"));
    for flags in [&pairs[..], &anchor[..], &auto[..]] {
        refused(
            &no,
            flags,
            "this checkpoint is of a search without --symmetry, not of a --symmetry tree; rerun without --symmetry to resume it",
        );
    }
    // Rerun as written, each resumes (and auto takes the recorded cut).
    for (ck, flags) in [
        (&pz, &pairs[..]),
        (&pz, &auto[..]),
        (&an, &anchor[..]),
        (&an, &auto[..]),
        (&no, &whole[..]),
    ] {
        let o = solve(ck, flags);
        let resumed = common::stdout(&o).contains("not exhaustive");
        assert!(resumed, "{flags:?}: {}", common::stderr(&o));
    }
    common::cleanup(&dir);
}

/// A part checkpoint left from another puzzle (`FILE.tr`) is refused before any part
/// is searched: no FILE is written, nothing of the run is lost.
#[test]
fn a_stale_part_checkpoint_is_refused_before_the_search() {
    let (dir, old) = scratch("sym-stale-part");
    let spread = |ck: &Path| Spread {
        threads: 1,
        checkpoint: Some(ck.to_path_buf()),
        ..Spread::default()
    };
    let stop = AtomicBool::new(false);
    let seven = brendan("07x04");
    let r = solve_symmetric(
        &seven,
        Heuristic::Scan(Along::Shape),
        &limits(None),
        &stop,
        &spread(&old),
    )
    .unwrap();
    assert!(r.exhaustive);
    // The 7x4's second half, left beside the checkpoint of a 6x5 run.
    let ck = dir.join("new.ck");
    std::fs::rename(dir.join("run.ck.tr"), dir.join("new.ck.tr")).unwrap();
    let six = brendan("06x05");
    let e = solve_symmetric(
        &six,
        Heuristic::Scan(Along::Shape),
        &limits(None),
        &stop,
        &spread(&ck),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("new.ck.tr: this checkpoint is for a different puzzle"),
        "{e}"
    );
    assert!(!ck.exists(), "searched before refusing");
    std::fs::remove_dir_all(dir).unwrap();
}

/// Shards of `--symmetry` runs merge into the whole run's list: the trees one after
/// the other, in each the boards in search order, each followed by its turns, and
/// `--keep K` keeps the whole run's first K; the deepest board is the whole run's.
#[test]
fn merged_shards_of_symmetric_runs_list_the_boards_of_the_whole_run() {
    let penalty = Strategy {
        moves: Order::Penalty,
        ..Strategy::from("mrv".parse::<Heuristic>().unwrap())
    };
    let cases = [
        (
            "06x06",
            Strategy::from(Heuristic::Scan(Along::Shape)),
            Parts::Anchor,
        ),
        (
            "06x06",
            Strategy::from(Heuristic::Scan(Along::Shape)),
            Parts::Pairs,
        ),
        ("05x05", penalty, Parts::Anchor),
        ("05x05", penalty, Parts::Pairs),
        ("06x05", penalty, Parts::Auto),
    ];
    for (name, s, how) in cases {
        let p = brendan(name);
        for keep in [1000, 7] {
            let l = Limits {
                keep,
                ..limits(None)
            };
            let run = |shard: Option<(usize, usize)>| {
                let spread = Spread {
                    threads: 2,
                    shard,
                    ..Spread::default()
                };
                solve_symmetric_parts(&p, s, how, &l, &AtomicBool::new(false), &spread).unwrap()
            };
            let whole = run(None);
            assert!(whole.symmetry > 1 && whole.solutions_found > 0);
            for n in [2, 3] {
                let what = format!("{name} {how:?} --keep {keep}, {n} shards");
                let shards: Vec<_> = (0..n)
                    .map(|i| (format!("shard {i}"), run(Some((i, n)))))
                    .collect();
                let (m, warnings) = plytile::merge::merge(&shards, keep).unwrap();
                assert!(warnings.is_empty(), "{what}: {warnings:?}");
                assert_eq!(m.solutions_found, whole.solutions_found, "{what}");
                assert_eq!(m.nodes_per_depth, whole.nodes_per_depth, "{what}");
                assert_eq!(m.solutions, whole.solutions, "{what}: solutions");
                assert_eq!(m.deepest, whole.deepest, "{what}: deepest");
            }
        }
    }
}
