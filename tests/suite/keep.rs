//! `--keep K` on the parallel drivers: one shelf keeps the run's first K solution
//! boards in search order, whichever subproblem found them (before: every subproblem
//! kept up to K until the end, subproblems x K boards in memory). The boards kept, their
//! order and the counts must be those of the plain one-thread search for every K,
//! thread count, schedule and move order, and a checkpoint must hold the boards a
//! rerun needs, and no more than K of this run's.

use plytile::puzzle::generate::generate;
use plytile::puzzle::Puzzle;
use plytile::report::SolveResult;
use plytile::search::parallel::interleave::Interleave;
use plytile::search::parallel::shelf::{Rank, Shelf};
use plytile::search::parallel::Prefix;
use plytile::search::{solve_with, Along, Heuristic, Limits, Mrv, Order, Spread, State, Strategy};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// A generated 4x3 with one rim and two inner colours: thousands of solutions spread
/// over every subproblem.
fn many() -> Puzzle {
    generate(4, 3, 1, 2, 3).unwrap()
}

fn limits(keep: usize, max_nodes: Option<u64>) -> Limits {
    Limits {
        keep,
        max_nodes,
        ..Limits::default()
    }
}

fn run(p: &Puzzle, s: Strategy, keep: usize, spread: &Spread) -> SolveResult {
    solve_with(p, s, &limits(keep, None), &AtomicBool::new(false), spread).unwrap()
}

fn threads(t: usize) -> Spread {
    Spread {
        threads: t,
        ..Spread::default()
    }
}

fn same(one: &SolveResult, r: &SolveResult, what: &str) {
    assert!(r.exhaustive, "{what}");
    assert_eq!(
        r.solutions_found, one.solutions_found,
        "{what}: solutions found"
    );
    assert_eq!(
        r.nodes_per_depth, one.nodes_per_depth,
        "{what}: nodes per depth"
    );
    assert_eq!(r.solutions, one.solutions, "{what}: kept boards, in order");
    assert_eq!(r.deepest, one.deepest, "{what}: deepest board");
}

#[test]
fn the_puzzle_has_solutions_in_many_subproblems() {
    let p = many();
    let one = run(
        &p,
        Strategy::from(Heuristic::Scan(Along::Shape)),
        usize::MAX,
        &threads(1),
    );
    assert!(one.solutions_found > 2000, "{}", one.solutions_found);
    assert_eq!(one.solutions.len() as u64, one.solutions_found);
}

/// Two threads (tiny frontiers and deep ones, so that work is given away), any order
/// of starting the subproblems, and the interleaved schedule with small windows and
/// slices: the same first K boards as one thread, for K from 0 to all of them.
#[test]
fn kept_boards_are_the_first_k_of_the_one_thread_search() {
    let p = many();
    let natural = |h: Heuristic| Strategy::from(h);
    let penalty = |h: Heuristic| Strategy {
        moves: Order::Penalty,
        ..Strategy::from(h)
    };
    for s in [
        natural(Heuristic::Scan(Along::Shape)),
        natural(Heuristic::Mrv(Mrv)),
        penalty(Heuristic::Mrv(Mrv)),
    ] {
        let all = run(&p, s, usize::MAX, &threads(1));
        for keep in [0, 1, 2, 17, 500, 5000, usize::MAX] {
            let one = run(&p, s, keep, &threads(1));
            let want = (keep as u64).min(all.solutions_found) as usize;
            assert_eq!(one.solutions[..], all.solutions[..want]);
            let mut spreads = vec![("threads 2".to_string(), threads(2))];
            for depth in [1, 3, 5] {
                let spread = Spread {
                    split_depth: Some(depth),
                    ..threads(2)
                };
                spreads.push((format!("threads 2 split {depth}"), spread));
            }
            spreads.push((
                "order penalty".into(),
                Spread {
                    order: Order::Penalty,
                    ..threads(2)
                },
            ));
            if s == natural(Heuristic::Scan(Along::Shape)) {
                for (t, window, slice) in [(1, 7, 13), (2, 1, 5), (2, 64, 97), (2, 4096, 2048)] {
                    let spread = Spread {
                        interleave: Some(Interleave { window, slice }),
                        ..threads(t)
                    };
                    spreads.push((format!("interleave {t} {window} {slice}"), spread));
                }
            }
            for (what, spread) in spreads {
                let r = run(&p, s, keep, &spread);
                same(
                    &one,
                    &r,
                    &format!("{} {} keep {keep}: {what}", s.select, s.moves),
                );
            }
        }
    }
}

/// Shards record where each board was found (`solutions_from`), one per board kept.
#[test]
fn shards_keep_their_first_k_with_where_they_were_found() {
    let p = many();
    let s = Strategy::from(Heuristic::Scan(Along::Shape));
    for keep in [1, 40] {
        for i in 0..3 {
            let spread = Spread {
                shard: Some((i, 3)),
                ..threads(2)
            };
            let r = run(&p, s, keep, &spread);
            assert_eq!(r.solutions.len() as u64, r.solutions_found.min(keep as u64));
            assert_eq!(r.solutions_from.len(), r.solutions.len());
            assert!(r.solutions_from.windows(2).all(|w| w[0] <= w[1]));
            // One thread searches the same share the same way.
            let one = run(
                &p,
                s,
                keep,
                &Spread {
                    threads: 1,
                    ..spread
                },
            );
            assert_eq!(one.solutions, r.solutions);
            assert_eq!(one.solutions_from, r.solutions_from);
        }
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("plytile-keep-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The boards a checkpoint's records hold, in all.
fn boards_in(ck: &std::path::Path) -> usize {
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(ck).unwrap()).unwrap();
    (v["records"].as_array().unwrap().iter())
        .map(|r| r["solutions"].as_array().unwrap().len())
        .sum()
}

/// Reruns under a small node budget, resuming a checkpoint each time: every file holds
/// at most K boards (they were K per subproblem), and the last run reports the boards
/// of one whole run; so does a rerun that only reads the finished file.
#[test]
fn checkpoints_hold_at_most_k_boards_and_reruns_end_exact() {
    let p = many();
    let s = Strategy::from(Heuristic::Scan(Along::Shape));
    for (name, interleave) in [
        ("dfs", None),
        (
            "interleave",
            Some(Interleave {
                window: 16,
                slice: 64,
            }),
        ),
    ] {
        for keep in [1, 30] {
            let one = run(&p, s, keep, &threads(1));
            let dir = scratch(&format!("{name}-{keep}"));
            let ck = dir.join("run.ck");
            let spread = Spread {
                checkpoint: Some(ck.clone()),
                split_depth: Some(3),
                interleave,
                ..threads(2)
            };
            let mut runs = 0;
            let last = loop {
                runs += 1;
                assert!(runs <= 200, "{name} keep {keep}: no end");
                let l = limits(keep, Some(20_000));
                let r = solve_with(&p, s, &l, &AtomicBool::new(false), &spread).unwrap();
                assert!(boards_in(&ck) <= keep, "{name} keep {keep} run {runs}");
                assert!(r.solutions.len() <= keep);
                if r.exhaustive {
                    break r;
                }
            };
            assert!(runs >= 3, "{name}: the budget was not small");
            let what = format!("{name} keep {keep}, {runs} runs");
            same(&one, &last, &what);
            let again = run(&p, s, keep, &spread);
            same(&one, &again, &format!("{what}, read again"));
            std::fs::remove_dir_all(&dir).unwrap();
        }
    }
}

/// The shelf on its own: holders offering boards in any interleaving keep exactly the
/// first K in rank order, and never hold more than K.
#[test]
fn the_shelf_keeps_the_first_k_in_rank_order() {
    let p = many();
    let mut st = State::new(&p);
    let s = Strategy::from(Heuristic::Scan(Along::Shape));
    // Holders: prefixes in search order, some below others (given away).
    let prefixes: Vec<Prefix> = vec![
        vec![(0, 4)],
        vec![(0, 4), (1, 8)],
        vec![(0, 4), (1, 9)],
        vec![(0, 5)],
        vec![(0, 6), (1, 2), (2, 3)],
        vec![(0, 7)],
    ];
    // Board j of holder i: a board tagged with (i, j) in its first cell.
    let board = |i: usize, j: usize| vec![Some((i * 100 + j, 0u8))];
    let per = 7;
    let all: Vec<_> = (0..prefixes.len())
        .flat_map(|i| (0..per).map(move |j| board(i, j)))
        .collect();
    for keep in [0, 1, 5, 20, 100] {
        for seed in 0..20u64 {
            let shelf = Shelf::new(keep);
            let slots: Vec<_> = (prefixes.iter())
                .map(|q| shelf.slot(Rank::of(&mut st, s, q)))
                .collect();
            // Each holder offers its boards in its order; holders take turns at random.
            let mut next = vec![0; prefixes.len()];
            let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            loop {
                let open: Vec<usize> = (0..prefixes.len()).filter(|&i| next[i] < per).collect();
                if open.is_empty() {
                    break;
                }
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let i = open[(x >> 33) as usize % open.len()];
                slots[i].offer(board(i, next[i]));
                next[i] += 1;
            }
            let kept = shelf.take_all();
            assert_eq!(
                kept[..],
                all[..keep.min(all.len())],
                "keep {keep} seed {seed}"
            );
        }
    }
}
