//! `--select auto`: its choice is reproducible given a seed where it must be (fixed
//! costs), it weighs the candidates it reports, and `solve`'s default finds what
//! every heuristic finds.

use crate::common::{code, p, plytile_exact as plytile, stdout};
use plytile::puzzle::formats::{read_puzzle, EdgeOrder};
use plytile::search::auto::{self, Budget, Costs, Goal};
use plytile::search::{Along, Heuristic};
use std::sync::atomic::AtomicBool;

fn load(rel: &str) -> plytile::puzzle::Puzzle {
    read_puzzle(std::path::Path::new(&p(rel)), EdgeOrder::Urdl).unwrap()
}

fn json(args: &[&str]) -> serde_json::Value {
    let o = plytile(args);
    assert_eq!(code(&o), 0, "{args:?}");
    serde_json::from_str(&stdout(&o)).unwrap()
}

/// With fixed costs the choice and every prediction depend on the seed alone.
#[test]
fn fixed_costs_choose_the_same_given_the_seed() {
    let puzzle = load("hinted/b08x08_e2hints.txt");
    let stop = AtomicBool::new(false);
    let budget = Budget::seconds(0.05);
    let a = auto::choose(&puzzle, None, budget, Costs::Fixed, 7, &stop).unwrap();
    let b = auto::choose(&puzzle, None, budget, Costs::Fixed, 7, &stop).unwrap();
    assert_eq!(a.chosen, b.chosen);
    assert_eq!(a.candidates, b.candidates);
    assert_eq!(a.skipped, b.skipped);
    // Every candidate is weighed but mrv@14: ply:2's tree has at most 64 nodes a level
    // down to level 14, so the count (64 nodes a level with fixed costs) reaches both
    // switches; mrv's has 48 on level 13 and 96 on level 14, so its probes would start
    // above the switch, where they die.
    let mrv14: Heuristic = "mrv@14".parse().unwrap();
    let mut weighed: Vec<_> = auto::candidates(&puzzle);
    weighed.retain(|&h| h != mrv14);
    let selects: Vec<_> = a.candidates.iter().map(|c| c.select).collect();
    assert_eq!(selects, weighed);
    assert_eq!(a.skipped, [mrv14]);
    // Not ply:2@7 (59,560 nodes in 24 subtrees, 5.7 ms alone) over order:hints (59,715
    // nodes, 1.1 ms) or ply:2 (1,209 nodes, 1.7 ms): each subtree's plan and tables are
    // priced, not its nodes alone.
    let find = |h: &str| {
        a.candidates
            .iter()
            .find(|c| c.select.to_string() == h)
            .unwrap()
    };
    assert!(!matches!(a.chosen, Heuristic::Hybrid(_)), "{a:?}");
    assert!(
        find("ply:2@7").cost_s > 2.0 * find("order:hints").cost_s,
        "{a:?}"
    );
    // The chosen one has the least predicted time.
    let least = a
        .candidates
        .iter()
        .map(|c| c.time_s)
        .fold(f64::INFINITY, f64::min);
    let chosen = a.candidates.iter().find(|c| c.select == a.chosen).unwrap();
    assert_eq!(chosen.time_s, least);
}

/// Puzzle C with five E2-like hints: scan's tree (2.4e7 nodes) is 20,000 times
/// ply:2's; auto does not choose scan, and the default finds scan's 3 solutions.
#[test]
fn the_default_solves_the_hinted_8x8_without_scan() {
    let f = p("hinted/b08x08_e2hints.txt");
    let r = json(&["solve", &f, "--all", "--json"]);
    let choice = &r["auto"];
    assert_eq!(choice["chosen"], r["select"]);
    assert_eq!(choice["goal"], "time");
    assert_ne!(r["select"], "scan");
    assert_eq!(r["solutions_found"], 3);
    // Every candidate is weighed, or left out after one reached the goal, measured,
    // within a slice of the budget (0.3 s over the 4 candidates of a square board).
    let weighed = choice["candidates"].as_array().unwrap();
    let skipped = choice
        .get("skipped")
        .and_then(|s| s.as_array())
        .map_or(0, |s| s.len());
    assert_eq!(
        weighed.len() + skipped,
        auto::candidates(&load("hinted/b08x08_e2hints.txt")).len()
    );
    if skipped > 0 {
        let quick =
            |c: &&serde_json::Value| c["measured"] == true && c["time_s"].as_f64().unwrap() < 0.075;
        assert!(weighed.iter().any(|c| quick(&c)), "{choice}");
    }
    for c in choice["candidates"].as_array().unwrap() {
        let (n, cost, t) = (
            c["nodes"].as_f64().unwrap(),
            c["cost_s"].as_f64().unwrap(),
            c["time_s"].as_f64().unwrap(),
        );
        assert!((n * cost - t).abs() <= 1e-9 * t.max(1.0), "{c}");
    }
    let scan = json(&["solve", &f, "--all", "--json", "--select", "scan"]);
    assert_eq!(scan["solutions_found"], 3);
    assert!(scan.get("auto").is_none());
}

/// `--all` on a board without hints: auto searches the --symmetry trees (a quarter
/// of a square board's tree), `--no-symmetry` the whole tree; the counts agree.
#[test]
fn auto_uses_the_symmetry_of_a_board_without_hints() {
    let f = p("brendan/pieces_05x05.txt");
    let cut = json(&["solve", &f, "--all", "--json"]);
    assert_eq!(cut["symmetry"], 4);
    let whole = json(&["solve", &f, "--all", "--json", "--no-symmetry"]);
    assert_eq!(whole["symmetry"], 1);
    assert_eq!(cut["solutions_found"], whole["solutions_found"]);
    // A first-solution run, and a named heuristic, keep the whole tree.
    assert_eq!(json(&["solve", &f, "--json"])["symmetry"], 1);
    assert_eq!(
        json(&["solve", &f, "--all", "--json", "--select", "mrv"])["symmetry"],
        1
    );
}

/// The hybrids parse and print as they are written, and a bad one is refused with
/// what is expected.
#[test]
fn hybrids_parse_and_print() {
    for s in ["ply:2@12", "mrv@0", "ply:4@255"] {
        assert_eq!(s.parse::<Heuristic>().unwrap().to_string(), s);
    }
    for bad in ["ply:9@3", "ply:2@", "mrv@x", "ply:2@-1"] {
        let e = bad.parse::<Heuristic>().unwrap_err();
        assert!(e.contains("expected ply:N@D"), "{bad}: {e}");
    }
    let o = plytile(&["solve", &p("brendan/pieces_04x04.txt"), "--select", "nope"]);
    assert_eq!(code(&o), 2);
    assert!(crate::common::stderr(&o).contains("expected auto or one of"));
}

/// `compare` weighs auto beside the heuristics: its row is named `auto` with its
/// choice, its time counts its choosing, and its count is the others'.
#[test]
fn compare_takes_auto() {
    let f = p("hinted/b08x08_e2hints.txt");
    let r = json(&["compare", &f, "--select", "auto,mrv", "--all", "--json"]);
    let (auto, mrv) = (&r["results"][0], &r["results"][1]);
    assert_eq!(auto["auto"]["chosen"], auto["select"]);
    assert!(mrv.get("auto").is_none());
    assert_eq!(auto["solutions_found"], 3);
    assert_eq!(mrv["solutions_found"], 3);
    assert_eq!(r["counts_agree"], true);
    let fastest = r["fastest"].as_str().unwrap();
    assert!(["auto", "mrv"].contains(&fastest), "{fastest}");
    // Ranked on the search and the choosing together.
    let (search, choosing) = (
        auto["elapsed_s"].as_f64().unwrap(),
        auto["auto"]["choosing_s"].as_f64().unwrap(),
    );
    let t = |x: &serde_json::Value| x["elapsed_s"].as_f64().unwrap();
    if fastest == "mrv" && t(mrv) > 0.0 {
        let ratio = auto["relative_time"].as_f64().unwrap();
        assert!(
            (ratio - (search + choosing) / t(mrv)).abs() < 1e-9 * ratio,
            "{ratio}"
        );
    }
    // The text's row names its own run's choice (a near tie, order:hints against
    // ply:2, can go either way between runs).
    let text = stdout(&plytile(&["compare", &f, "--select", "auto,mrv", "--all"]));
    let named = auto::candidates(&load("hinted/b08x08_e2hints.txt"));
    assert!(
        named.iter().any(|h| text.contains(&format!("auto ({h})"))),
        "{text}"
    );
}

/// `bench` runs auto as a setting: each timed run chooses (recorded in `chosen`),
/// and its count is scan's.
#[test]
fn bench_takes_auto() {
    let f = p("brendan/pieces_04x04.txt");
    let r = json(&[
        "bench",
        &f,
        "--select",
        "auto,scan",
        "--runs",
        "2",
        "--warmup",
        "0",
        "--export-json",
        "-",
    ]);
    let records = r["results"].as_array().unwrap();
    assert_eq!(records[0]["select"], "auto");
    assert_eq!(records[0]["chosen"].as_array().unwrap().len(), 2);
    assert!(records[1].get("chosen").is_none());
    assert_eq!(records[0]["solutions_found"], records[1]["solutions_found"]);
    assert_eq!(r["config"]["settings"], serde_json::json!(["auto", "scan"]));
}

/// `order:hints` and `order:deep` are weighed only where they are not one of scan's
/// orders: on a board without hints both fill row by row, scan's tree at a higher cost
/// per node.
#[test]
fn planned_orders_are_weighed_only_with_hints() {
    // The hybrids switch after an eighth and a quarter of the open cells (49, then 59).
    let bare = auto::candidates(&load("brendan/pieces_07x07.txt"));
    let all = ["scan", "mrv", "ply:2", "ply:2@6", "ply:2@12", "mrv@12"];
    assert_eq!(bare, all.map(|h| h.parse::<Heuristic>().unwrap()));
    let hinted = auto::candidates(&load("hinted/b08x08_e2hints.txt"));
    let all = [
        "scan",
        "mrv",
        "ply:2",
        "ply:2@7",
        "ply:2@14",
        "mrv@14",
        "order:hints",
        "order:deep",
    ];
    assert_eq!(hinted, all.map(|h| h.parse::<Heuristic>().unwrap()));
}

/// Eternity II with its five hints, given a hundredth of a second: no candidate is
/// predicted to get anywhere near a solution in 100 times that, so auto chooses the
/// one whose short run got deepest (ties: the earlier), not the smallest predicted
/// tree.
#[test]
fn an_unreachable_goal_is_chosen_for_depth() {
    let puzzle = crate::common::e2_with("e2_hints.txt");
    let budget = Budget {
        seconds: 0.2,
        timeout_s: Some(0.01),
    };
    let stop = AtomicBool::new(false);
    let c = auto::choose(&puzzle, Some(1), budget, Costs::Measured, 1, &stop).unwrap();
    assert_eq!(c.goal, Goal::Deepest, "{c:?}");
    // Scan (the first) unless another got 3 levels deeper; then the deepest such.
    let depth = |c: &auto::Candidate| c.depth.unwrap();
    let scan = &c.candidates[0];
    assert_eq!(scan.select, Heuristic::Scan(Along::Shape));
    let deeper = c.candidates.iter().filter(|o| depth(o) >= depth(scan) + 3);
    let expected = deeper
        .fold(None::<&auto::Candidate>, |b, o| match b {
            Some(b) if depth(b) >= depth(o) => Some(b),
            _ => Some(o),
        })
        .unwrap_or(scan);
    assert_eq!(c.chosen, expected.select, "{c:?}");
    assert!(c.candidates.iter().all(|c| c.time_s > 1.0), "{c:?}");
    assert!(c
        .line()
        .contains("the deepest board of equal short runs decides"));
    // The hybrids' trees are not counted down to their switch depths (31, 62) in the
    // time: they are not weighed, rather than weighed by probes that die above it.
    let hybrids = ["ply:2@31", "ply:2@62", "mrv@62"].map(|h| h.parse().unwrap());
    assert_eq!(c.skipped, hybrids, "{c:?}");
    assert!(c.line().contains("not weighed: ply:2@31, ply:2@62, mrv@62"));
}

/// `split`'s default chooses as `solve --all --shard` does (fixed costs, the same
/// seed), so a job and the shard of the same index search the same subtrees; on the
/// hinted 8x8 that choice is not scan, and the job file records it.
#[test]
fn split_chooses_as_shards_do() {
    let f = p("hinted/b08x08_e2hints.txt");
    let dir = crate::common::scratch_dir("auto-split");
    let out = dir.join("jobs");
    let o = plytile(&["split", &f, "--jobs", "2", "--out", out.to_str().unwrap()]);
    assert_eq!(code(&o), 0);
    let job = out.join("job-0001.ron");
    let by_job = json(&["solve", "--job", job.to_str().unwrap(), "--all", "--json"]);
    let by_shard = json(&["solve", &f, "--all", "--shard", "1/2", "--json"]);
    assert_eq!(by_shard["auto"]["costs"], "fixed");
    assert_eq!(by_job["select"], by_shard["select"]);
    assert_ne!(by_job["select"], "scan");
    assert_eq!(by_job["nodes_per_depth"], by_shard["nodes_per_depth"]);
    assert_eq!(by_job["solutions_found"], by_shard["solutions_found"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Where solutions are many and no short run reaches the K asked, every candidate is
/// weighed by its nodes per solution in one hole of a solution ([`auto::Hole`]). On
/// the E2 clue 2 that is mrv: scan:rows meets 20 solutions in its short run and mrv
/// none, yet mrv reaches the millionth in half scan:rows' time. Neither `--all`,
/// the first solution, nor a goal the best short run's rate reaches in less than 100
/// short runs (1,000 solutions: scan:rows, 0.07 s against mrv's 0.66 s) is weighed so.
#[test]
fn many_solutions_are_weighed_in_a_hole() {
    let puzzle = load("e2/clue2.txt");
    let stop = AtomicBool::new(false);
    let choose = |k, seconds| {
        auto::choose(
            &puzzle,
            k,
            Budget::seconds(seconds),
            Costs::Measured,
            1,
            &stop,
        )
        .unwrap()
    };
    let c = choose(Some(1_000_000), 1.0);
    assert!(c.hole_cells.is_some_and(|h| h >= 8), "{c:?}");
    assert_eq!(c.chosen, "mrv".parse().unwrap(), "{c:?}");
    for x in &c.candidates {
        assert_eq!(x.basis, auto::Basis::Hole, "{c:?}");
        assert_eq!(x.time_s, x.nodes * x.cost_s);
    }
    assert!(
        c.line().contains("-cell hole of a solution"),
        "{}",
        c.line()
    );
    for k in [None, Some(1), Some(1000)] {
        let c = choose(k, 0.2);
        assert_eq!(c.hole_cells, None, "{k:?}: {c:?}");
        assert!(c.candidates.iter().all(|x| x.basis != auto::Basis::Hole));
    }
}

/// A hole keeps the cells of its solution outside the last ones of scan's order: its
/// solutions are exactly the whole board's that agree with that solution there.
#[test]
fn a_hole_holds_the_solutions_that_agree_outside_it() {
    let puzzle = load("brendan/pieces_05x05.txt");
    let all = crate::common::brute_force_all(&puzzle);
    let board = &all.boards[all.boards.len() / 2];
    for cells in [4, 8, 12] {
        let hole = auto::Hole::cut(&puzzle, board, cells);
        assert_eq!(hole.hints.len(), 25 - cells);
        let agree = |b: &plytile::puzzle::Board| {
            hole.hints
                .iter()
                .all(|h| b[h.row * 5 + h.col] == Some((h.piece, h.rotation)))
        };
        let mut expected: Vec<_> = all.boards.iter().filter(|b| agree(b)).collect();
        let mut found = crate::common::brute_force_all(&hole).boards;
        assert!(found.contains(board), "{cells}");
        found.sort();
        expected.sort();
        assert_eq!(found.iter().collect::<Vec<_>>(), expected, "{cells}");
    }
}

/// Brendan's 16x4, first solution: `mrv@16` finds it in about 3 ms, mrv in 0.14 s,
/// scan in 4.4 s. The hybrid's short run (30 ms of a 0.6 s budget) reaches the goal,
/// and auto runs it.
#[test]
fn a_hybrid_timed_to_the_goal_is_chosen() {
    let puzzle = load("brendan/pieces_16x04.txt");
    let stop = AtomicBool::new(false);
    let budget = Budget::seconds(0.6);
    let c = auto::choose(&puzzle, Some(1), budget, Costs::Measured, 1, &stop).unwrap();
    assert!(matches!(c.chosen, Heuristic::Hybrid(_)), "{c:?}");
    let chosen = c.candidates.iter().find(|x| x.select == c.chosen).unwrap();
    assert!(chosen.measured, "{c:?}");
}
