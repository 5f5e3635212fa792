//! The hybrids `ply:N@D` and `mrv@D`: their trees against an oracle written from the
//! definition, their counts against the brute force, and the same tree whatever
//! runs it (the hand-over to the planned part, the generic driver's picks alone,
//! threads, split depths).

use crate::common::{brute_force, brute_force_mrv_at, hint_from};
use plytile::puzzle::generate::generate;
use plytile::puzzle::{Hint, Puzzle};
use plytile::report::SolveResult;
use plytile::search::select::{Hybrid, Mrv, Switch};
use plytile::search::{dfs, solve, solve_with, Heuristic, Limits, Spread, State};
use std::sync::atomic::AtomicBool;

fn all() -> Limits {
    Limits {
        keep: 1000,
        ..Limits::default()
    }
}

fn run(p: &Puzzle, h: Heuristic, spread: Spread) -> SolveResult {
    let r = solve_with(p, h, &all(), &AtomicBool::new(false), &spread).unwrap();
    assert!(r.exhaustive, "{h} on {}", p.name);
    r
}

fn trimmed(mut nodes: Vec<u64>) -> Vec<u64> {
    while nodes.len() > 1 && nodes.last() == Some(&0) {
        nodes.pop();
    }
    nodes
}

/// Generated boards, some with hints from one of their solutions.
fn boards() -> Vec<Puzzle> {
    let mut out = Vec::new();
    for &(w, h, rim, inner, seed) in &[(3, 3, 2, 2, 1), (4, 4, 2, 3, 5), (5, 4, 2, 3, 9)] {
        let p = generate(w, h, rim, inner, seed).unwrap();
        let first = solve(
            &p,
            Heuristic::Mrv(Mrv),
            &Limits {
                max_solutions: Some(1),
                keep: 1,
                ..Limits::default()
            },
            &AtomicBool::new(false),
        );
        let board = first.solution_board(0);
        let mut cells = vec![w + 1, w * h - w - 2];
        cells.dedup();
        let hints: Vec<Hint> = cells.iter().map(|&c| hint_from(&p, &board, c)).collect();
        let hinted = Puzzle {
            hints,
            name: format!("{} + 2 hints", p.name),
            ..p.clone()
        };
        out.push(p);
        out.push(hinted);
    }
    out
}

/// `mrv@D` visits exactly the nodes of its definition, for D from the root to past
/// the board, with and without hints; its solutions are the brute force's.
#[test]
fn mrv_at_d_visits_the_nodes_of_its_definition() {
    for p in boards() {
        let want = brute_force(&p).solutions;
        for at in [0, 1, 2, 4, 7, 100] {
            let h = Heuristic::Hybrid(Switch { n: 0, at });
            let oracle = brute_force_mrv_at(&p, at as usize);
            let r = run(&p, h, Spread::default());
            assert_eq!(
                trimmed(r.nodes_per_depth.clone()),
                oracle.nodes_per_depth,
                "{} {h}",
                p.name
            );
            assert_eq!(r.solutions_found, want, "{} {h}", p.name);
        }
    }
}

/// `ply:N@D`: the brute force's solutions; the same nodes per depth when the generic
/// driver picks every site itself (no hand-over), on 2 threads and at any split depth.
#[test]
fn ply_at_d_counts_and_one_tree_whoever_searches_it() {
    for p in boards() {
        let want = brute_force(&p).solutions;
        for (n, at) in [(2, 0), (2, 3), (1, 5), (3, 2), (2, 100)] {
            let h = Heuristic::Hybrid(Switch { n, at });
            let one = run(&p, h, Spread::default());
            assert_eq!(one.solutions_found, want, "{} {h}", p.name);
            // The generic driver alone: the hybrid's own picks below depth D.
            let mut st = State::new(&p);
            let inner = plytile::search::select::Ply::new(&st, n as usize, false);
            let inner = plytile::search::select::Lookahead::Ply(inner);
            let mut sel = Hybrid::new(inner, at as usize);
            let stats = dfs::search(&mut st, &mut sel, &p, &all(), &AtomicBool::new(false));
            assert_eq!(
                stats.nodes_per_depth, one.nodes_per_depth,
                "{} {h}: picks alone",
                p.name
            );
            for spread in [
                Spread {
                    threads: 2,
                    ..Spread::default()
                },
                Spread {
                    threads: 2,
                    split_depth: Some(1),
                    ..Spread::default()
                },
                Spread {
                    threads: 2,
                    split_depth: Some(4),
                    ..Spread::default()
                },
            ] {
                let r = run(&p, h, spread.clone());
                assert_eq!(
                    r.nodes_per_depth, one.nodes_per_depth,
                    "{} {h} {spread:?}",
                    p.name
                );
                assert_eq!(r.solutions, one.solutions, "{} {h} {spread:?}", p.name);
            }
        }
    }
}

/// A node budget stops a hybrid inside a handed-over subtree and counts exactly the
/// budget; a solution limit stops it at that many solutions.
#[test]
fn limits_reach_into_the_planned_part() {
    let p = generate(5, 4, 2, 3, 9).unwrap();
    let h = Heuristic::Hybrid(Switch { n: 2, at: 2 });
    let whole = run(&p, h, Spread::default());
    assert!(whole.solutions_found >= 2);
    for budget in [1, 2, 3, 10, 57, whole.nodes - 1] {
        let limits = Limits {
            max_nodes: Some(budget),
            ..all()
        };
        let r = solve(&p, h, &limits, &AtomicBool::new(false));
        assert_eq!(r.nodes, budget, "{h} --max-nodes {budget}");
    }
    let limits = Limits {
        max_solutions: Some(2),
        keep: 10,
        ..Limits::default()
    };
    let r = solve(&p, h, &limits, &AtomicBool::new(false));
    assert_eq!(r.solutions_found, 2);
    assert_eq!(r.solutions[..], whole.solutions[..2]);
}
